# Parlour: a small production image (SQLite by default; set DATABASE_URL for PostgreSQL).
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY app ./app
COPY engines ./engines
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 HOST=0.0.0.0 PORT=8000 \
    DATABASE_URL=sqlite+aiosqlite:////data/parlour.db
COPY --from=build /install /usr/local
WORKDIR /srv/parlour
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY app ./app
COPY engines ./engines
RUN useradd --system --uid 10001 --home /srv/parlour parlour && mkdir /data && chown parlour /data
USER parlour
VOLUME ["/data"]
EXPOSE 8000
HEALTHCHECK --interval=30s --timeout=3s --start-period=10s \
  CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/healthz', timeout=2)"
CMD ["python", "-m", "app.cli", "serve"]
