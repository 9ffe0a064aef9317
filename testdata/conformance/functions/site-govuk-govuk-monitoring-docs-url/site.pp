notify { 'call 1: page': message => monitoring_docs_url('high-load') }
notify { 'call 2: number': message => monitoring_docs_url(42) }
