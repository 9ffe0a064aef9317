realize(User['nobody'])
