"""Kamen's schema migrations, one numbered history for both engines (see `store.schema`)."""
