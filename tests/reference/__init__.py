"""Naive, independent reference implementations used to cross-check the real engines."""
