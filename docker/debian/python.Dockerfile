# Python 3.11 from Debian packages, for registries that cannot be reached (see base-image.sh).
ARG BASE_IMAGE=scoregate-base/debian:bookworm
FROM ${BASE_IMAGE}
RUN apt-get update \
 && apt-get install -y --no-install-recommends python3 python3-venv ca-certificates \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin
CMD ["python3"]
