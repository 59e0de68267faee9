"""Review UI finding 7: a reviewer can sign out (a shared desk's next user starts signed
out), and the key's cookie is ``Secure`` when the page was served over HTTPS."""

from __future__ import annotations

from scoregate.server.auth import new_key
from tests.server_client import AppClient
from tests.unit.test_server import env, keyed  # noqa: F401  (env is a fixture)


def test_sign_out_clears_the_cookie_and_the_page_offers_it(env):  # noqa: F811
    key = new_key()
    client = keyed(env, f"alice:review:{key}")
    signed_in = AppClient(client.app, {"Cookie": f"scoregate_key={key}"})
    page = signed_in.get("/review").text
    assert 'action="/review/logout"' in page and "Sign out" in page
    out = signed_in.post("/review/logout")
    assert out.status_code == 200 and "Signed out" in out.text
    cookie = out.headers["set-cookie"]
    assert cookie.startswith("scoregate_key=") and "Max-Age=0" in cookie


def test_without_keys_there_is_no_one_to_sign_out(env):  # noqa: F811
    assert "/review/logout" not in env["client"].get("/review").text


def test_the_cookie_is_secure_over_https_only(env):  # noqa: F811
    key = new_key()
    client = keyed(env, f"alice:review:{key}")
    plain = client.post("/review/login", data={"key": key}).headers["set-cookie"]
    assert "Secure" not in plain  # a local http server: a Secure cookie would never return
    tls = client.post("https://testserver/review/login", data={"key": key}).headers["set-cookie"]
    assert "Secure" in tls and "HttpOnly" in tls
