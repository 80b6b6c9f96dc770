"""The web app: FastAPI pages and JSON API over `services.web_support`."""
