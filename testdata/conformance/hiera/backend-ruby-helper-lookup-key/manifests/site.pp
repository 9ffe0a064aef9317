include app
notify { "again: ${lookup('app::region')} ${lookup('app::nothing', undef, undef, 'default')}": }
