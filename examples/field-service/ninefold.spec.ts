import { constant, defineApp } from 'ninefold';

const OPEN_ORDERS = ['open', 'scheduled', 'overdue', 'inProgress'];

/**
 * Field service: customers' sites and the equipment on them, work orders to repair it, the
 * technicians' visits and the parts they use. Written against the spec format only: Ninefold has
 * no code for it. Times that matter (visits, response times) are the engine's to keep: a visit's
 * end is derived from its start and duration, a technician's visits never overlap, work orders
 * not started within the promised hours go overdue by themselves, a visit's report is due two
 * working days after it starts (weekends and public holidays skipped), and completing a visit
 * puts its equipment back in service.
 */
export default defineApp({
  name: 'field-service',

  purpose: {
    title: 'Field Service',
    timeZone: 'Europe/Berlin',
    summary:
      'Dispatchers plan visits to customers’ sites, technicians repair the equipment and log the parts, customers follow their orders.',
    audience: [
      'Dispatchers who take work orders and plan visits',
      'Technicians who visit sites',
      'Customers who follow the orders for their sites',
    ],
  },

  screens: {
    navigation: ['workOrder', 'visit', 'site', 'equipment', 'customer'],
    lists: {
      workOrder: {
        columns: ['title', 'state', 'site', 'equipment', 'priority', 'partsTotal', 'createdAt'],
        sort: '-createdAt',
        filters: ['state', 'priority', 'site'],
      },
      visit: { columns: ['workOrder', 'technician', 'startsAt', 'endsAt', 'state'], sort: 'startsAt', filters: ['state', 'technician'] },
      site: { columns: ['name', 'customer', 'address', 'openOrders'], sort: 'name', filters: ['customer'] },
      equipment: { columns: ['name', 'serial', 'site', 'status'], sort: 'name', filters: ['status', 'site'] },
      customer: { columns: ['name', 'email', 'phone'], sort: 'name' },
      partLine: { columns: ['workOrder', 'description', 'quantity', 'unitPrice', 'total'], sort: '-createdAt' },
    },
    details: {
      customer: { related: { site: { label: 'Sites', columns: ['name', 'address', 'openOrders'] } } },
      site: {
        related: {
          equipment: { label: 'Equipment', columns: ['name', 'serial', 'status'] },
          workOrder: { label: 'Work orders', columns: ['title', 'state', 'priority', 'createdAt'], sort: '-createdAt' },
        },
      },
      workOrder: {
        related: {
          visit: { label: 'Visits', columns: ['technician', 'startsAt', 'endsAt', 'state'], sort: 'startsAt' },
          partLine: { label: 'Parts', columns: ['description', 'quantity', 'unitPrice', 'total'] },
        },
      },
    },
    home: {
      title: 'Today',
      widgets: [
        { kind: 'counts', entity: 'workOrder', by: 'state', title: 'Work orders by state', roles: ['dispatcher', 'admin'] },
        {
          kind: 'list',
          entity: 'workOrder',
          title: 'Overdue work orders',
          where: { field: 'state', op: 'eq', value: 'overdue' },
          sort: 'createdAt',
          columns: ['title', 'site', 'priority', 'createdAt'],
          roles: ['dispatcher', 'admin'],
        },
        {
          kind: 'list',
          entity: 'visit',
          title: 'My next visits',
          where: {
            all: [
              { field: 'technician', op: 'eq', value: { actor: true } },
              { field: 'state', op: 'eq', value: 'planned' },
            ],
          },
          sort: 'startsAt',
          columns: ['workOrder', 'startsAt', 'endsAt'],
          roles: ['technician'],
        },
        {
          kind: 'list',
          entity: 'workOrder',
          title: 'Open orders for my sites',
          where: { field: 'state', op: 'in', value: OPEN_ORDERS },
          sort: '-createdAt',
          columns: ['title', 'state', 'site', 'createdAt'],
          roles: ['customer'],
        },
      ],
    },
  },

  entities: {
    customer: {
      label: 'Customer',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120, searchable: true },
        email: { type: 'email' },
        phone: { type: 'text', maxLength: 40 },
      },
    },
    site: {
      label: 'Site',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120, searchable: true },
        customer: { type: 'reference', to: 'customer', required: true },
        address: { type: 'text', maxLength: 240 },
        openOrders: {
          type: 'integer',
          label: 'Open orders',
          derived: { count: 'workOrder', where: { field: 'state', op: 'in', value: OPEN_ORDERS } },
        },
      },
      // Demo data: the places a customer has, as a dispatcher names them.
      samples: {
        name: [
          'Head office',
          'Main warehouse',
          'North depot',
          'Riverside plant',
          'High Street shop',
          'Distribution centre',
          'Factory, hall 2',
          'Staff canteen',
          'Data centre',
          'Branch office',
          'Cold store',
          'Workshop',
          'Clinic, east wing',
          'Hotel laundry',
          'Bakery',
          'Loading bay',
        ],
      },
    },
    equipment: {
      label: 'Equipment',
      pluralLabel: 'Equipment',
      plural: 'equipment',
      titleField: 'name',
      fields: {
        name: { type: 'text', required: true, maxLength: 120, searchable: true },
        serial: { type: 'text', maxLength: 60, unique: true },
        site: { type: 'reference', to: 'site', required: true },
        status: {
          type: 'enum',
          values: ['inService', 'outOfService'],
          labels: { inService: 'In service', outOfService: 'Out of service' },
          colours: { outOfService: 'red' },
          default: 'inService',
          readOnly: true,
          help: 'Out of service from a work order until a visit completes it.',
        },
      },
      samples: {
        name: [
          'Walk-in freezer',
          'Rooftop air conditioner',
          'Industrial dishwasher',
          'Gas boiler',
          'Passenger lift',
          'Forklift truck',
          'Air compressor',
          'Ice machine',
          'Combi oven',
          'Fire alarm panel',
          'Roller shutter door',
          'Heat pump',
          'Ventilation unit',
          'Backup generator',
          'Coffee machine',
          'Conveyor belt',
        ],
      },
    },
    workOrder: {
      label: 'Work order',
      titleField: 'title',
      description: 'A repair asked for on a site, planned as visits.',
      fields: {
        title: { type: 'text', required: true, maxLength: 160, searchable: true },
        site: { type: 'reference', to: 'site', required: true },
        equipment: { type: 'reference', to: 'equipment' },
        priority: {
          type: 'enum',
          values: ['low', 'normal', 'high'],
          labels: { low: 'Low', normal: 'Normal', high: 'High' },
          colours: { high: 'orange' },
          default: { $constant: 'defaultPriority' },
        },
        description: { type: 'markdown', maxLength: 5000 },
        partsTotal: { type: 'decimal', label: 'Parts total', derived: { sum: 'partLine.total' } },
        lastVisit: {
          type: 'datetime',
          label: 'Last visit',
          derived: { max: 'visit.startsAt', where: { field: 'state', op: 'eq', value: 'done' } },
        },
      },
      // A broken machine is out of service from the moment it is reported.
      onCreate: [{ on: 'equipment', set: 'status', to: 'outOfService', as: 'system' }],
      // Demo data: faults as customers report them, each title with its description.
      samples: {
        title: [
          'Freezer not cooling',
          'Boiler shows error E119',
          'Lift stuck between floors',
          'Annual service of the air conditioning',
          'Dishwasher leaking water',
          'Forklift will not start',
          'Loud noise from the compressor',
          'Fire alarm panel reports a fault',
          'Shutter door jammed half-open',
          'Heat pump trips the breaker',
          'Replace the worn conveyor belt',
          'No hot water in the kitchen',
          'Generator failed its monthly test',
          'Ice machine makes no ice',
          'Oven does not reach temperature',
          'Ventilation too loud in the office',
        ],
        // As many as the titles: each goes with the title at its place.
        description: [
          'The freezer has been at -8 °C since last night. Stock moved to the cold room for now.',
          'The boiler shows **E119** and restarts every few minutes. No heating in the offices.',
          'Nobody inside. The lift stopped between the second and third floors this morning; it is switched off.',
          'Yearly maintenance as agreed in the service contract:\n\n- check and clean the filters\n- test the safety switches\n- log the readings',
          'Water on the floor under the machine after each cycle. It has been switched off until someone looks at it.',
          'The battery was charged overnight, but the truck does not react to the key. Needed for deliveries on Friday.',
          'A knocking noise when the compressor starts, getting worse over the last week.',
          'The panel shows a fault on zone 3 and beeps every hour.\n\nAccess through reception; ask for the key.',
          'The door stopped half-way and will not move either way. The loading bay cannot be locked.',
          'The breaker trips about ten minutes after the heat pump starts. Second time this month.',
          'The belt is frayed at the edges. Please bring a replacement: the line can stop for two hours on Saturday.',
          'Only cold water at every tap in the kitchen since this morning. The rest of the building is fine.',
          'The generator did not take the load in the monthly test and stopped after a minute.',
          'The machine runs and fills with water, but no ice comes out.',
          'The oven stays around 150 °C when set to 220 °C, mostly at full load around midday.',
          'Staff hear a loud hum from the ceiling vents on the first floor, worst in the afternoon.',
        ],
      },
    },
    partLine: {
      label: 'Part',
      titleField: 'description',
      fields: {
        workOrder: { type: 'reference', to: 'workOrder', required: true, onDelete: 'cascade' },
        description: { type: 'text', required: true, maxLength: 160 },
        quantity: { type: 'integer', required: true, min: 1, max: 1000, default: 1 },
        unitPrice: { type: 'decimal', label: 'Unit price', required: true, min: 0, max: 100000 },
        total: { type: 'decimal', computed: { multiply: [{ field: 'quantity' }, { field: 'unitPrice' }] } },
      },
      samples: {
        description: [
          'Compressor relay',
          'Door gasket',
          'Thermostat',
          'Fan motor',
          'Drive belt',
          'Pressure switch',
          'Water pump',
          'Control board',
          'Filter set',
          'Refrigerant, 1 kg',
          'Fuse, 16 A',
          'Ignition electrode',
          'Drain hose',
          'Bearing kit',
          'Solenoid valve',
          'Temperature sensor',
        ],
      },
    },
    visit: {
      label: 'Visit',
      titleField: 'workOrder',
      fields: {
        workOrder: { type: 'reference', to: 'workOrder', required: true },
        equipment: { type: 'reference', to: 'equipment' },
        technician: { type: 'user', roles: ['technician'], required: true },
        startsAt: { type: 'datetime', label: 'Starts at', required: true },
        durationMinutes: { type: 'integer', label: 'Duration (minutes)', required: true, min: 15, max: 720, default: 60 },
        endsAt: { type: 'datetime', label: 'Ends at', computed: { from: 'startsAt', plus: { minutes: { field: 'durationMinutes' } } } },
        report: { type: 'markdown', maxLength: 5000 },
        // Counted in the office's working days: a Friday visit's report is due on Tuesday, not on Sunday.
        reportDue: {
          type: 'datetime',
          label: 'Report due',
          computed: { from: 'startsAt', plus: { workingDays: constant('reportWorkingDays') } },
        },
      },
      exclusive: {
        range: ['startsAt', 'endsAt'],
        per: 'technician',
        where: { field: 'state', op: 'ne', value: 'cancelled' },
        message: 'This technician already has a visit at that time.',
        error: 'VISIT_OVERLAP',
      },
      // Demo data: reports as technicians write them.
      samples: {
        report: [
          'Replaced the door gasket and checked the seal. Holds temperature again.',
          'Found a worn drive belt; replaced it and tested under load for 30 minutes.',
          'Could not finish: the part is on order. Made the machine safe and put a note on it.',
          'Cleaned the filters and the drain. Readings are normal:\n\n- pressure 2.1 bar\n- outlet 48 °C',
          'Reset the control board and updated its settings. No fault in an hour of running.',
          'Replaced the thermostat. The customer was shown how to read the new display.',
          'Loose wire in the control panel, fixed and secured. **Recommend** a full service within three months.',
          'Nothing wrong found on arrival; ran a full test cycle. Asked the customer to call again if it recurs.',
        ],
      },
    },
  },

  workflows: {
    workOrder: {
      states: {
        open: { label: 'Open', initial: true },
        scheduled: { label: 'Scheduled' },
        overdue: { label: 'Overdue', description: 'Not started within the response time.' },
        inProgress: { label: 'In progress' },
        done: { label: 'Done', final: true },
        cancelled: { label: 'Cancelled', final: true },
      },
      transitions: {
        schedule: { label: 'Schedule', from: 'open', to: 'scheduled', allow: ['dispatcher', 'admin'] },
        goOverdue: {
          label: 'Go overdue',
          from: ['open', 'scheduled'],
          to: 'overdue',
          allow: [],
          auto: { after: 'createdAt', hours: constant('responseHours') },
        },
        start: { label: 'Start', from: ['open', 'scheduled', 'overdue'], to: 'inProgress', allow: ['technician', 'dispatcher', 'admin'] },
        finish: { label: 'Finish', from: 'inProgress', to: 'done', allow: ['technician', 'dispatcher', 'admin'] },
        cancel: {
          label: 'Cancel',
          from: ['open', 'scheduled', 'overdue'],
          to: 'cancelled',
          allow: ['dispatcher', 'admin'],
          comment: 'required',
        },
      },
    },
    visit: {
      states: {
        planned: { label: 'Planned', initial: true },
        done: { label: 'Done', final: true },
        cancelled: { label: 'Cancelled', final: true },
      },
      transitions: {
        complete: {
          label: 'Complete',
          from: 'planned',
          to: 'done',
          allow: [{ owner: 'technician' }, 'dispatcher', 'admin'],
          requires: ['report'],
          // The repair is done: its equipment is back in service.
          effects: [{ on: 'equipment', set: 'status', to: 'inService', as: 'system' }],
        },
        cancel: {
          label: 'Cancel',
          from: 'planned',
          to: 'cancelled',
          allow: ['dispatcher', 'admin'],
          guard: {
            field: 'startsAt',
            op: 'gt',
            value: { now: true, plus: { hours: constant('cancelNoticeHours') } },
          },
          guardError: 'TOO_LATE_TO_CANCEL',
        },
      },
    },
  },

  users: {
    fields: {
      customer: { type: 'reference', to: 'customer', help: 'The customer a customer account speaks for: they see its sites and orders.' },
    },
  },

  roles: {
    admin: { label: 'Administrator', description: 'Runs the service: users, customers, everything.' },
    dispatcher: { label: 'Dispatcher', description: 'Takes work orders and plans the visits.' },
    technician: { label: 'Technician', description: 'Visits sites, repairs equipment, logs parts.' },
    customer: { label: 'Customer', description: 'Follows and opens work orders for their own sites.' },
  },

  permissions: {
    customer: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: { read: { where: { field: 'id', op: 'eq', value: { actor: 'customer' } } } },
    },
    site: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: {
        list: { where: { field: 'customer', op: 'eq', value: { actor: 'customer' } } },
        read: { where: { field: 'customer', op: 'eq', value: { actor: 'customer' } } },
      },
    },
    equipment: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: { list: { via: 'site' }, read: { via: 'site' } },
    },
    workOrder: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true },
      customer: {
        list: { via: 'site' },
        read: { via: 'site' },
        create: { via: 'site' },
        hiddenFields: ['partsTotal'],
      },
    },
    partLine: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true, delete: true },
      technician: { list: true, read: true, create: true, update: true },
    },
    visit: {
      admin: { list: true, read: true, create: true, update: true, delete: true },
      dispatcher: { list: true, read: true, create: true, update: true },
      technician: { list: true, read: true, update: { own: 'technician' } },
      customer: { list: { via: 'workOrder' }, read: { via: 'workOrder' }, hiddenFields: ['report'] },
    },
  },

  errors: {
    VISIT_OVERLAP: { status: 409, title: 'Technician busy', message: 'This technician already has a visit at that time.' },
    TOO_LATE_TO_CANCEL: {
      status: 409,
      title: 'Too late to cancel',
      message: 'A visit can be cancelled until a few hours before it starts; call the technician instead.',
    },
  },

  constants: {
    responseHours: { value: 24, unit: 'hours', description: 'How long a work order may wait to be started before it is overdue.' },
    cancelNoticeHours: { value: 2, unit: 'hours', description: 'How long before its start a visit can still be cancelled.' },
    defaultPriority: { value: 'normal', description: 'The priority of a new work order unless one is given.' },
    reportWorkingDays: { value: 2, unit: 'working days', description: 'How long after a visit starts its report is due.' },
  },

  // The office's week and its public holidays, on Berlin's clock (purpose.timeZone).
  calendar: {
    weekend: ['saturday', 'sunday'],
    holidays: ['01-01', '05-01', '10-03', '12-25', '12-26', '2026-04-03', '2026-04-06', '2026-05-14', '2026-05-25'],
  },
});
