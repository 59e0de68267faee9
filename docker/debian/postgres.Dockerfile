# PostgreSQL from Debian packages (bookworm: 15) with an entrypoint that, like the official
# image, creates the cluster on first start from POSTGRES_USER / POSTGRES_PASSWORD / POSTGRES_DB.
ARG BASE_IMAGE=scoregate-base/debian:bookworm
FROM ${BASE_IMAGE}
RUN mkdir -p /etc/postgresql-common \
 && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
 && apt-get update \
 && apt-get install -y --no-install-recommends postgresql-15 \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/postgres-entrypoint
USER postgres
EXPOSE 5432
ENTRYPOINT ["postgres-entrypoint"]
CMD ["postgres"]
