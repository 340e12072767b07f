"""Presenters: the contract's wire shapes (`_id`, epoch milliseconds, the envelope's content)
made from service results, one module per area."""
