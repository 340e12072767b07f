"""Handlers of the `commerce` tag: products, subscriptions, pay-per-view, access codes and cards."""
