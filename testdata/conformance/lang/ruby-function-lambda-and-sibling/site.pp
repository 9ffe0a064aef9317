$flags = m_flags({ 'env' => ['A=1', 'B=2'], 'label' => 'x' })
notify { "flags=${flags}": }
notify { "twice=${m::twice(21)}": }
