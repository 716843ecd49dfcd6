"""What the bot process runs beside the Discord adapter: its plumbing, not its words.

`settings` (the environment, read once and frozen), `logs` (one line per
event, never a token), `health` (`/healthz`, `/metrics`, and the probe
`python -m runtime.health` that Docker's HEALTHCHECK runs), `metrics` (what the
bot counts as it runs) and `opponent` (the AI's process pool). Nothing here
knows Discord; `bot/` uses these, never the other way round.
"""
