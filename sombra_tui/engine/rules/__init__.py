"""The rules by RULES.md area: one module per area, each handler registered with its
command type (engine/registry.py)."""
