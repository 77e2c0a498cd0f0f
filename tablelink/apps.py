from django.apps import AppConfig


class TablelinkConfig(AppConfig):
    name = "tablelink"
