# Parlour: a small production image (SQLite in /data by default; set DATABASE_URL for PostgreSQL).
# The code lives once, in /srv/parlour, with its templates, static files and migrations; the
# dependencies come first, from the lock file, so a code change rebuilds only the last layers.
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PYTHONPATH=/srv/parlour HOST=0.0.0.0 PORT=8000 DATABASE_URL=sqlite+aiosqlite:////data/parlour.db
RUN useradd --system --uid 10001 --home /srv/parlour parlour && mkdir /data && chown parlour /data \
 && printf '#!/bin/sh\nexec python -m app.cli "$@"\n' > /usr/local/bin/parlour && chmod 755 /usr/local/bin/parlour
WORKDIR /srv/parlour
COPY requirements.lock ./
# `parlour serve` runs under -OO -X no_debug_ranges (app/cli.py); its byte code is compiled here
# once, as the image cannot write it (PYTHONDONTWRITEBYTECODE, a user without write access). A
# few of the standard library's test files are not Python 3 on purpose: those stay uncompiled.
RUN pip install --no-cache-dir -r requirements.lock
RUN python -OO -X no_debug_ranges -m compileall -q -j 0 \
      "$(python -c 'import sysconfig; print(sysconfig.get_path("stdlib"))')" \
      "$(python -c 'import sysconfig; print(sysconfig.get_path("purelib"))')" >/dev/null || true
COPY alembic.ini pyproject.toml ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY engines ./engines
COPY app ./app
RUN python -OO -X no_debug_ranges -m compileall -q -j 0 app engines >/dev/null
USER parlour
VOLUME ["/data"]
EXPOSE 8000
# Healthy = ready for players (GET /readyz: the database answers, at this release's schema), which
# is what compose's depends_on, a rolling update and a proxy that follows the health wait for;
# GET /healthz only says the process is alive. Checked every 10 s from the start (failures in the
# first 30 s, while `parlour serve` migrates, do not count against it).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
  CMD python -c "import urllib.request,os; urllib.request.urlopen(f'http://127.0.0.1:{os.environ[\"PORT\"]}/readyz', timeout=4)"
CMD ["parlour", "serve"]
