notify { 'x': message => monitoring_docs_url() }
