"""Shared code of the Gradio Spaces: input parsing, HTML views and the common page.

``gecscore.spaces.framework`` needs ``gradio``; the other modules do not.
"""
