"""The REST API: version 1 under /api/v1/, the OpenAPI schema and its docs page."""

from csp.decorators import csp_exempt
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from api.v1 import urlpatterns as v1

urlpatterns = [
    path("v1/", include((v1, "v1"), namespace="v1")),
    path("schema/", SpectacularAPIView.as_view(), name="schema"),
    # Swagger UI runs an inline script from a CDN: exempt from the pages' CSP until it is
    # served from a pinned local copy (issue 15).
    path(
        "docs/",
        csp_exempt()(SpectacularSwaggerView.as_view(url_name="schema")),
        name="api-docs",
    ),
]
