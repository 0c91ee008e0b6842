"""One module per benchmark scenario; each has ``run(context) -> dict`` returning JSON-ready figures."""
