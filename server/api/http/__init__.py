"""HTTP plumbing the handlers share: the request context and database session, the error
envelope, routing by tag, validation, the anonymous cache, no-store headers, JSON encoding and
work after the answer."""
