"""The SQLite schema, as numbered forward migrations `NNNN_name.sql`."""
