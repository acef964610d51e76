"""Log in and out with the same throttled login as the API token: Django's authentication
goes through django-axes (failures counted per username and address, 429 after the limit)."""

from django.contrib.auth import views as auth_views

from scorebook.web.forms.accounts import LoginForm


class LoginView(auth_views.LoginView):
    template_name = "web/auth/login.html"
    authentication_form = LoginForm
    redirect_authenticated_user = True


class LogoutView(auth_views.LogoutView):
    """POST only (Django's own rule): a link cannot log anyone out."""
