"""The REST API: version 1 under /api/v1/, the OpenAPI schema and its docs page."""

from django.urls import URLPattern, URLResolver, include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from api.v1 import urlpatterns as v1_routes

v1 = [route for route in v1_routes if isinstance(route, URLPattern | URLResolver)]

urlpatterns = [
    path("v1/", include((v1, "v1"), namespace="v1")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # The split view serves its start-up script as a file: no inline script for the CSP.
    path(
        "docs/",
        SpectacularSwaggerSplitView.as_view(url_name="schema", template_name="api/docs.html"),
        name="api-docs",
    ),
]
