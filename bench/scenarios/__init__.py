"""One module per scenario of issue 5; each has ``run(context) -> dict`` returning JSON-ready figures."""
