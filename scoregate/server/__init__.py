"""The HTTP API and the review queue (``scoregate serve``).

``create_app(service, api_keys)`` builds the FastAPI app over an :class:`ApiService`,
which wraps the same ``PipelineContext`` the workers and the Python API use.
"""

from scoregate.server.app import create_app
from scoregate.server.service import ApiService

__all__ = ["ApiService", "create_app"]
