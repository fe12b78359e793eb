# The example course for Sphinx with MyST and furo (made by docs/teachers/make_courses.py).
# Build: pip install sphinx furo myst-parser autograd_py (a wheel with the playground),
# then `sphinx-build -b html . _build/html`.
project = "Autograd, hands-on"
extensions = ["myst_parser", "autograd_playground.sphinx"]
html_theme = "furo"
html_title = "Autograd, hands-on"
exclude_patterns = ["_build"]
