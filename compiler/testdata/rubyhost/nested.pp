notify { 'nested': message => hatchc::outer('abc') }
