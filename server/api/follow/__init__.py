"""Handlers of the `follow` tag: followed leagues, sports and teams."""
