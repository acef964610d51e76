"""The Celery app; loaded by ``scorebook.core`` so ``scorebook/__init__.py`` stays empty."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "scorebook.settings")

app = Celery("scorebook")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
