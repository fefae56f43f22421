"""Plain helpers the tests import (the fixtures are in ``tests/conftest.py``)."""
