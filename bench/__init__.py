"""Benchmarks of the printmgmt SDK against raw httpx and aiohttp (issue 5); run ``python -m bench``."""
