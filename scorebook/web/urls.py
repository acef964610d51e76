"""The pages' routes (names in docs: WEB-CONTRACT). Each area adds only its own lines."""

from django.urls import path

from scorebook.web.views import auth, clubs

app_name = "web"

urlpatterns = [
    path("", clubs.home, name="home"),
    path("login", auth.LoginView.as_view(), name="login"),
    path("logout", auth.LogoutView.as_view(), name="logout"),
    path("c/<slug:slug>/", clubs.club, name="club"),
]
