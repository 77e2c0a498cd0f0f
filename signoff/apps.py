from django.apps import AppConfig


class SignoffConfig(AppConfig):
    name = "signoff"
