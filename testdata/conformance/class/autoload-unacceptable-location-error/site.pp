include web_core
