"""HTTP handlers, one package per contract tag (server/api/<tag>/), each function named after the
operationId it serves; the plumbing they share is in http/, the wire shapes in presenters/."""
