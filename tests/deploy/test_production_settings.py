"""The production env example passes Django's deployment checklist with nothing to say."""

import re
import shutil
import subprocess
import sys

import pytest

from tests.deploy.server import ROOT

pytestmark = pytest.mark.slow
EXAMPLE = ROOT / "deploy" / "scorebook.env.example"


def example_env() -> dict[str, str]:
    """The env example as systemd's EnvironmentFile reads it, plus a generated SECRET_KEY
    (the example leaves it empty on purpose: the service then refuses to start)."""
    env = {}
    for line in EXAMPLE.read_text().splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    assert env["SECRET_KEY"] == ""
    env["SECRET_KEY"] = "k3y-" + "".join(chr(ord("a") + i % 26) for i in range(60))
    return env


def check_deploy(env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        cwd=ROOT,
        env={"PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_with_the_env_example_gives_no_warning():
    env = example_env()
    assert env["DEBUG"] == "false" and env["TRUSTED_PROXY_COUNT"] == "1"
    done = check_deploy(env)
    assert done.returncode == 0, done.stderr
    assert "no issues" in done.stdout


def test_check_deploy_catches_what_the_example_sets():
    """The check can fail: turning off HSTS is a warning."""
    done = check_deploy({**example_env(), "SECURE_HSTS_SECONDS": "0"})
    assert done.returncode != 0
    assert "security.W004" in done.stderr


@pytest.mark.skipif(not shutil.which("nginx"), reason="nginx is not installed")
def test_the_nginx_config_is_valid_redirects_port_80_and_sends_hsts(tmp_path):
    conf = (ROOT / "deploy" / "nginx.conf").read_text()
    assert "return 301 https://$host$request_uri;" in conf
    assert re.search(r'add_header Strict-Transport-Security "max-age=\d+.*" always;', conf)
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
         "/CN=test", "-keyout", tmp_path / "key.pem", "-out", tmp_path / "cert.pem"],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    site = conf.replace(
        "# ssl_certificate / ssl_certificate_key: from your certificate manager.",
        f"ssl_certificate {tmp_path}/cert.pem; ssl_certificate_key {tmp_path}/key.pem;",
    )
    (tmp_path / "site.conf").write_text(site)
    (tmp_path / "nginx.conf").write_text(
        f"pid {tmp_path}/nginx.pid; error_log stderr; events {{}}\n"
        f"http {{ access_log off; include {tmp_path}/site.conf; }}\n"
    )
    done = subprocess.run(
        ["nginx", "-t", "-c", str(tmp_path / "nginx.conf"), "-p", str(tmp_path)],
        capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
