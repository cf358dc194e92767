"""builders: exact, fast engines for Kingdom Builder and The Builders: Middle Ages."""

__version__ = "0.1.0"
