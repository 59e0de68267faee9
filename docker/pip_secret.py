"""Write this host's pip configuration as a pip.conf a Docker build can use as a secret.

Local indexes, find-links folders and constraint files (``file://`` or plain paths) are
rewritten to ``http://127.0.0.1:PORT/N/...`` and linked under SERVE_DIR, which build.sh
serves over HTTP for the build (run with ``--network host``); the certificate is copied
beside the pip.conf and referenced at the path its secret is mounted on in the build.

Writes OUT_DIR/has_cpu_torch when a find-links folder holds a CPU torch wheel.

Usage: python3 pip_secret.py OUT_DIR SERVE_DIR PORT   (SERVE_DIR inside OUT_DIR)
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

CERT_IN_BUILD = "/run/secrets/pip_cert"
URL_KEYS = ("index-url", "extra-index-url", "find-links", "constraint")
KEEP_KEYS = ("trusted-host", "default-timeout", "retries", "timeout")


def host_config() -> dict[str, str]:
    """The effective pip options (environment over user over global), key -> value."""
    out = subprocess.run(
        [sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True, check=True
    ).stdout
    found: dict[str, dict[str, str]] = {"env": {}, "other": {}}
    for line in out.splitlines():
        name, _, value = line.partition("=")
        scope, _, key = name.rpartition(".")
        where = "env" if scope == ":env:" else "other"
        found[where][key] = value.strip().strip("'\"")
    return {**found["other"], **found["env"]}


def rewrite(value: str, serve: Path, port: int, links: dict[str, str], *, index: bool) -> str:
    """Each local path in a space-separated list becomes a URL served from ``serve``.

    An index is served from its parent folder: its pages link to files with ``../../``.
    """
    parts = []
    for item in value.split():
        path = item.removeprefix("file://") if item.startswith("file://") else item
        if not path.startswith("/"):
            parts.append(item)  # already a URL
            continue
        if not os.path.exists(path):
            print(f"pip_secret: skipping {item}: not found on this host", file=sys.stderr)
            continue
        if os.path.isdir(path) and any(Path(path).glob("torch-*+cpu-*.whl")):
            (serve.parent / "has_cpu_torch").touch()
        path = path.rstrip("/")
        root, tail = (os.path.dirname(path), os.path.basename(path)) if index else (path, "")
        if root not in links:
            name = str(len(links))
            (serve / name).symlink_to(root)
            links[root] = name
        url = f"http://127.0.0.1:{port}/{links[root]}" + (f"/{tail}" if tail else "")
        parts.append(url + ("/" if os.path.isdir(path) else ""))
    return " ".join(parts)


def main(out_dir: Path, serve: Path, port: int) -> None:
    cfg = host_config()
    lines = ["[global]", f"trusted-host = 127.0.0.1 {cfg.get('trusted-host', '')}".rstrip()]
    links: dict[str, str] = {}
    for key in URL_KEYS:
        is_index = key.endswith("index-url")
        if key in cfg and (value := rewrite(cfg[key], serve, port, links, index=is_index)):
            lines.append(f"{key} = {value}")
    lines += [f"{k} = {cfg[k]}" for k in KEEP_KEYS if k in cfg and k != "trusted-host"]
    cert = cfg.get("cert")
    if cert and os.path.isfile(cert):
        shutil.copyfile(cert, out_dir / "pip_cert")
        lines.append(f"cert = {CERT_IN_BUILD}")
    (out_dir / "pip_conf").write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]), int(sys.argv[3]))
