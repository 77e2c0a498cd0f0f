from django.apps import AppConfig


class DrawConfig(AppConfig):
    name = "draw"
