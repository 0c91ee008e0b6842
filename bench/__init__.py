"""Benchmarks of the printmgmt SDK against raw httpx and aiohttp; run ``python -m bench``."""
