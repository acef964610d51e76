"""The pages, one module per area (see docs in templates/web/<area>/)."""
