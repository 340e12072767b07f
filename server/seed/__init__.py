"""Seed data: the demo catalogue (fixtures/catalogue.yaml), its artwork and the benchmark bulk fill."""
