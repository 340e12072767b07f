"""HTTP handlers, one module per contract tag; function names are operationIds."""
