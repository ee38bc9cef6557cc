"""The researcher's dashboard: static HTML/CSS/JS served by the API at /dashboard.

The page reads the same /v1 JSON endpoints as any other client, so the dashboard never shows
a number the API would not; this package only serves files.
"""
