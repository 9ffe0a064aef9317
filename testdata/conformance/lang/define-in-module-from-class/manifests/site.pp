include profile
