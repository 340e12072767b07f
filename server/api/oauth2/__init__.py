"""Handlers of the `oauth2` tag: token refresh and federated sign-on."""
