"""The generated layer of printmgmt: models, and one request builder per operation (make generate)."""
