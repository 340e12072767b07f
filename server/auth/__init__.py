"""Authentication: access tokens and how requests are bound to a viewer."""
