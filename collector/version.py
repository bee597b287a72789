"""The collector's own version, printed in every report so maintainers know what produced it."""

VERSION = "0.1.0"
