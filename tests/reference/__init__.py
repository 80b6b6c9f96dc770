"""An independent reference of the standings, written from shared/spec/scoring.md alone."""
