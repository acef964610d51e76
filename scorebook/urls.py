from django.conf import settings
from django.contrib import admin
from django.urls import include, path

from scorebook.core.views import bench_insert, healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("api.urls")),
    path("", include("scorebook.web.urls")),
]

if settings.BENCH_ENDPOINTS:
    urlpatterns.append(path("bench/insert", bench_insert, name="bench-insert"))

handler400 = "scorebook.core.views.bad_request"
handler404 = "api.errors.unrouted"
handler500 = "scorebook.core.views.server_error"
