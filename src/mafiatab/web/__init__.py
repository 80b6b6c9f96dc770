"""The web app (issue 4): FastAPI pages and JSON API over `services.web_support`."""
