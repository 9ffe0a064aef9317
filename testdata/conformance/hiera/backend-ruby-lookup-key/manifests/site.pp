include app
