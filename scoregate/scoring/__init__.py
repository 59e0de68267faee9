"""Pure scoring algorithms: no Celery, no database."""
