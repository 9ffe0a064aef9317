include profile::web
