# The app for container platforms: several Streamlit processes behind nginx in one container (serve/serve.sh).
#   docker build -t dml-visualizer . && docker run -p 8080:8080 -e PROCESSES=2 dml-visualizer
FROM python:3.11-slim
RUN apt-get update \
    && apt-get install -y --no-install-recommends nginx \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /app
COPY . .
RUN pip install --no-cache-dir .
ENV PYTHON=python PORT=8080
EXPOSE 8080
CMD ["bash", "serve/serve.sh"]
